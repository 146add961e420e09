extern "C" __global__
void k6_kernel(int n, float* in1, float* out2) {
    int v0 = 4;
    int v1 = blockIdx.x;
    int v2 = (v1 * 64);
    int v3 = threadIdx.x;
    int v4 = (v2 + v3);
    int v5 = ((3) < (v4) ? (3) : (v4));
    int v6 = ((v0) > (v5) ? (v0) : (v5));
    float v7 = (v6 + 0.0f);
    bool v9 = (v4 < n);
    if (v9) {
        out2[v4] = v7;
    }
}
