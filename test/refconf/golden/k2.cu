extern "C" __global__
void k2_kernel(int n, float* in1, float* in2, float f3, int s4, float* out5) {
    bool v0 = (f3 < 3.25f);
    int v1 = blockIdx.x;
    int v2 = (v1 * 16);
    int v3 = threadIdx.x;
    int v4 = (v2 + v3);
    int v5 = -(v4);
    bool v7 = (v4 < n);
    float v8 = (v7 ? in1[v4] : 1.5f);
    float v9 = (v0 ? v5 : v8);
    if (v7) {
        out5[v4] = v9;
    }
}
