extern "C" __global__
void k99_kernel(int n, float* in1, float* in2, int s3, int s4, int trips5, float* in6, float* out7) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : 1.0f);
    float v7 = (v6 * v6);
    float v8 = 0.0f;
    float v17 = v8;
    for (int v9 = 0; v9 < trips5; v9 += 1) {
        int v11 = (v3 + v9);
        bool v13 = (v11 < 85);
        float v14 = (v13 ? in6[v11] : 0.0f);
        float v15 = (isnan(v7) ? (v7) : (isnan(v14) ? (v14) : ((v7) > (v14) ? (v7) : (v14))));
        float v16 = (v17 + v15);
        v17 = v16;
    }
    float v19 = (v5 ? in1[v3] : -1.5f);
    float v20 = (v19 * s3);
    float v21 = (isnan(v20) ? (v20) : (isnan(4.0f) ? (4.0f) : ((v20) > (4.0f) ? (v20) : (4.0f))));
    if (v5) {
        out7[v3] = v21;
    }
}
