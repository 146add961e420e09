extern "C" __global__
void k76_kernel(int n, float* in1, float* in2, float f3, float f4, int trips5, float* in6, float* out7) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v4 = (f3 < -3.25f);
    float v5 = expf(f3);
    float v6 = 0.0f;
    float v11 = v6;
    for (int v7 = 0; v7 < trips5; v7 += 1) {
        float v9 = (v4 ? v5 : 3.25f);
        float v10 = (isnan(v11) ? (v11) : (isnan(v9) ? (v9) : ((v11) > (v9) ? (v11) : (v9))));
        v11 = v10;
    }
    out7[v0] = f4;
}
