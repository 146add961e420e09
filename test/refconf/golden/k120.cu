extern "C" __global__
void k120_kernel(int n, float* in1, float* in2, float* in3, float f4, float* in5, int trips6, float* in7, float* out8) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -0.75f);
    bool v7 = (v6 < -2.0f);
    float v8 = 0.0f;
    float v13 = v8;
    for (int v9 = 0; v9 < trips6; v9 += 1) {
        float v11 = (v7 ? f4 : v9);
        float v12 = (v13 + v11);
        v13 = v12;
    }
    out8[v0] = f4;
}
