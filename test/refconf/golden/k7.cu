extern "C" __global__
void k7_kernel(int n, float* in1, float* in2, float* in3, float f4, int s5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -0.75f);
    float v7 = expf(v6);
    float v8 = -(v7);
    if (v5) {
        out6[v3] = v8;
    }
}
