extern "C" __global__
void k13_kernel(int n, float* in1, float f2, float* out3) {
    int v0 = 4;
    int v1 = blockIdx.x;
    int v2 = ((3) < (v1) ? (3) : (v1));
    int v3 = ((v0) > (v2) ? (v0) : (v2));
    float v4 = (v3 + 0.0f);
    int v5 = (v1 * 128);
    int v6 = threadIdx.x;
    int v7 = (v5 + v6);
    bool v9 = (v7 < n);
    if (v9) {
        out3[v7] = v4;
    }
}
