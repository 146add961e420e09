extern "C" __global__
void k144_kernel(int n, float* in1, float* in2, float f3, float f4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : -0.25f);
    if (v5) {
        out5[v3] = v6;
    }
}
