extern "C" __global__
void k14_kernel(int n, float* in1, int s2, int trips3, float* in4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : 1.25f);
    float v7 = (isnan(v6) ? (v6) : (isnan(-2.25f) ? (-2.25f) : ((v6) < (-2.25f) ? (v6) : (-2.25f))));
    float v8 = -(v7);
    float v9 = 0.0f;
    float v15 = v9;
    for (int v10 = 0; v10 < trips3; v10 += 3) {
        float v12 = (v8 * v10);
        float v13 = (isnan(-2.25f) ? (-2.25f) : (isnan(v12) ? (v12) : ((-2.25f) < (v12) ? (-2.25f) : (v12))));
        float v14 = (isnan(v15) ? (v15) : (isnan(v13) ? (v13) : ((v15) > (v13) ? (v15) : (v13))));
        v15 = v14;
    }
    float v16 = expf(v7);
    if (v5) {
        out5[v3] = v16;
    }
}
