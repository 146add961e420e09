extern "C" __global__
void k121_kernel(int n, float* in1, float* in2, float* in3, float* in4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v4 = (v3 < 5);
    int v5 = (v4 ? 1 : 0);
    float v6 = (v5 + 0.0f);
    bool v8 = (v3 < n);
    if (v8) {
        out5[v3] = v6;
    }
}
