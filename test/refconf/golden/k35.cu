extern "C" __global__
void k35_kernel(int n, float* in1, float* in2, float* in3, int s4, float f5, float* in6, float* out7) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : 0.25f);
    bool v7 = (v6 < v3);
    int v8 = (v7 ? 1 : 0);
    float v9 = (v8 + 0.0f);
    if (v5) {
        out7[v3] = v9;
    }
}
