extern "C" __global__
void k20_kernel(int n, float* in1, float f2, int trips3, float* in4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -1.5f);
    float v11 = 0.0f;
    for (int v7 = 0; v7 < trips3; v7 += 1) {
        int v9 = (4 - v0);
        float v10 = (v11 + v9);
        v11 = v10;
    }
    float v12 = expf(v6);
    float v13 = -(v12);
    float v14 = (isnan(v13) ? (v13) : (isnan(f2) ? (f2) : ((v13) < (f2) ? (v13) : (f2))));
    float v15 = (v14 * v14);
    if (v5) {
        out5[v3] = v15;
    }
}
