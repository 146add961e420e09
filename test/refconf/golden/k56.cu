extern "C" __global__
void k56_kernel(int n, float* in1, float* in2, float* in3, int s4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in3[v3] : 1.75f);
    float v7 = (isnan(-2.25f) ? (-2.25f) : (isnan(v6) ? (v6) : ((-2.25f) < (v6) ? (-2.25f) : (v6))));
    float v8 = (v7 * 1.75f);
    if (v5) {
        out5[v3] = v8;
    }
}
