extern "C" __global__
void k82_kernel(int n, float* in1, float* in2, float* out3) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : -1.5f);
    float v7 = expf(v6);
    float v8 = (v7 + 1.75f);
    if (v5) {
        out3[v3] = v8;
    }
}
