extern "C" __global__
void k130_kernel(int n, float* in1, float* in2, float* in3, int s4, int trips5, float* in6, float* out7) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in3[v3] : 1.0f);
    float v10 = 0.0f;
    for (int v7 = 0; v7 < trips5; v7 += 1) {
        float v9 = (v10 + v7);
        v10 = v9;
    }
    float v12 = (v5 ? in1[v3] : -2.0f);
    float v13 = (isnan(-2.0f) ? (-2.0f) : (isnan(v12) ? (v12) : ((-2.0f) > (v12) ? (-2.0f) : (v12))));
    float v14 = -(v13);
    float v15 = expf(v14);
    if (v5) {
        out7[v3] = v15;
    }
}
