extern "C" __global__
void k142_kernel(int n, float* in1, float* in2, float* in3, float f4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in3[v3] : -1.75f);
    float v7 = (isnan(v6) ? (v6) : (isnan(v6) ? (v6) : ((v6) > (v6) ? (v6) : (v6))));
    if (v5) {
        out5[v3] = v7;
    }
}
