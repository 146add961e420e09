extern "C" __global__
void k115_kernel(int n, float* in1, float* in2, float* out3) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = ((v3) > (7) ? (v3) : (7));
    bool v5 = (v4 < -4);
    int v6 = (v5 ? v3 : 0);
    int v7 = (v3 - v6);
    int v8 = ((v7) > (0) ? (v7) : (0));
    int v9 = (4 * v8);
    float v10 = (v9 + 0.0f);
    bool v12 = (v3 < n);
    if (v12) {
        out3[v3] = v10;
    }
}
