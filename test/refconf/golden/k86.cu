extern "C" __global__
void k86_kernel(int n, float* in1, float* in2, int s3, int s4, float* in5, int trips6, float* in7, float* out8) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : -1.25f);
    bool v7 = (v6 < 1.25f);
    float v8 = 0.0f;
    int v9 = (v3 + 0);
    int v11 = (v3 + 0);
    bool v12 = (v11 < 52);
    float v13 = (v12 ? in5[v9] : -2.0f);
    float v14 = (v13 * 0.0f);
    float v15 = (v8 + v14);
    int v16 = (v3 + 1);
    int v18 = (v3 + 1);
    bool v19 = (v18 < 52);
    float v20 = (v19 ? in5[v16] : -2.0f);
    float v21 = (v20 * 0.0f);
    float v22 = (v15 + v21);
    int v23 = (v3 + 2);
    int v25 = (v3 + 2);
    bool v26 = (v25 < 52);
    float v27 = (v26 ? in5[v23] : -2.0f);
    float v28 = (v27 * 0.0f);
    float v29 = (v22 + v28);
    float v33 = 0.0f;
    for (int v30 = 1; v30 < trips6; v30 += 1) {
        float v32 = (v33 + v30);
        v33 = v32;
    }
    float v34 = (3.5f - v33);
    float v35 = (1.5f + v34);
    out8[v0] = v35;
}
