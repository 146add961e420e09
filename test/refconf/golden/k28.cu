extern "C" __global__
void k28_kernel(int n, float* in1, float* in2, int trips3, float* in4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -0.25f);
    float v7 = expf(v6);
    float v8 = -(v7);
    float v12 = 0.0f;
    for (int v9 = 2; v9 < trips3; v9 += 1) {
        float v11 = (v12 + v9);
        v12 = v11;
    }
    float v13 = expf(v6);
    float v14 = -(v13);
    if (v5) {
        out5[v3] = v14;
    }
}
