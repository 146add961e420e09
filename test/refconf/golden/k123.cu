extern "C" __global__
void k123_kernel(int n, float* in1, float* in2, float f3, int s4, float* in5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : 0.75f);
    float v7 = 0.0f;
    bool v11 = (v3 < 12);
    float v12 = (v11 ? in5[v3] : 1.0f);
    float v13 = (v12 * 0.75f);
    float v14 = (v7 + v13);
    int v15 = (v3 + 1);
    bool v18 = (v15 < 12);
    float v19 = (v18 ? in5[v15] : 1.0f);
    float v20 = (v19 * 0.75f);
    float v21 = (v14 + v20);
    int v22 = (v3 + 2);
    bool v25 = (v22 < 12);
    float v26 = (v25 ? in5[v22] : 1.0f);
    float v27 = (v26 * 0.75f);
    float v28 = (v21 + v27);
    float v29 = (v6 - v28);
    if (v5) {
        out6[v3] = v29;
    }
}
