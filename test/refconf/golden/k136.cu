extern "C" __global__
void k136_kernel(int n, float* in1, float* out2) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -0.25f);
    float v7 = (v6 / -0.75f);
    float v8 = (-1.0f + v7);
    float v9 = -(v8);
    float v10 = (3.5f - v7);
    float v11 = (v9 + v10);
    if (v5) {
        out2[v3] = v11;
    }
}
