extern "C" __global__
void k150_kernel(int n, float* in1, float* in2, float* in3, float* out4) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : -1.75f);
    float v7 = -(v6);
    float v8 = 5;
    bool v9 = (v7 < v8);
    int v10 = (v9 ? 1 : 0);
    float v11 = (v10 + 0.0f);
    if (v5) {
        out4[v3] = v11;
    }
}
