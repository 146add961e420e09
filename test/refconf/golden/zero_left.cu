extern "C" __global__
void zero_left_kernel(float* x, float* out, int n) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? x[v3] : 0.0f);
    int v7 = (0 + v3);
    float v9 = (v6 + v7);
    int v10 = (0 * v3);
    float v11 = (v9 + v10);
    bool v14 = (v7 < n);
    if (v14) {
        out[v3] = v11;
    }
}
