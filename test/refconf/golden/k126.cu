extern "C" __global__
void k126_kernel(int n, float* in1, float* in2, float* in3, float f4, float f5, float* in6, float* out7) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : 1.25f);
    float v7 = 0.0f;
    bool v11 = (v3 < 13);
    float v12 = (v11 ? in6[v3] : 1.0f);
    float v13 = (v12 * 0.75f);
    float v14 = (v7 + v13);
    int v15 = (v3 + 1);
    bool v18 = (v15 < 13);
    float v19 = (v18 ? in6[v15] : 1.0f);
    float v20 = (v19 * 0.75f);
    float v21 = (v14 + v20);
    int v22 = (v3 + 2);
    bool v25 = (v22 < 13);
    float v26 = (v25 ? in6[v22] : 1.0f);
    float v27 = (v26 * 0.75f);
    float v28 = (v21 + v27);
    float v29 = (v6 - v28);
    if (v5) {
        out7[v3] = v29;
    }
}
