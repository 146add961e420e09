extern "C" __global__
void k69_kernel(int n, float* in1, float* in2, float f3, int s4, int trips5, float* in6, float* out7) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : 1.75f);
    bool v7 = (v6 < -3.25f);
    float v8 = 0.0f;
    float v18 = v8;
    for (int v9 = 0; v9 < trips5; v9 += 1) {
        int v11 = (v3 + v9);
        bool v13 = (v11 < 120);
        float v14 = (v13 ? in6[v11] : 0.5f);
        float v15 = (v7 ? v14 : v9);
        float v16 = (v7 ? v6 : v15);
        float v17 = (v18 + v16);
        v18 = v17;
    }
    float v19 = (f3 + f3);
    out7[v0] = v19;
}
