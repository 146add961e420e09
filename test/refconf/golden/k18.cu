extern "C" __global__
void k18_kernel(int n, float* in1, float* in2, float f3, float* out4) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : 1.0f);
    if (v5) {
        out4[v3] = v6;
    }
}
