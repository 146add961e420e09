extern "C" __global__
void k79_kernel(int n, float* in1, float* in2, float* in3, int s4, int trips5, float* in6, float* out7) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in3[v3] : 0.75f);
    bool v7 = (v6 < -3.25f);
    float v8 = expf(v6);
    float v9 = 0.0f;
    float v14 = v9;
    for (int v10 = 0; v10 < trips5; v10 += 1) {
        float v12 = (v7 ? v8 : 3.25f);
        float v13 = (isnan(v14) ? (v14) : (isnan(v12) ? (v12) : ((v14) > (v12) ? (v14) : (v12))));
        v14 = v13;
    }
    float v16 = (v5 ? in2[v3] : -0.25f);
    float v17 = (isnan(v16) ? (v16) : (isnan(v14) ? (v14) : ((v16) > (v14) ? (v16) : (v14))));
    if (v5) {
        out7[v3] = v17;
    }
}
