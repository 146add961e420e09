extern "C" __global__
void k70_kernel(int n, float* in1, float* in2, float* in3, float* out4) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : 0.0f);
    float v7 = (v6 + v6);
    float v8 = (v7 * v7);
    if (v5) {
        out4[v3] = v8;
    }
}
