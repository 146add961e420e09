extern "C" __global__
void k39_kernel(int n, float* in1, float* in2, float* in3, float f4, int s5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = -(v3);
    float v5 = (v4 + 0.0f);
    bool v7 = (v3 < n);
    if (v7) {
        out6[v3] = v5;
    }
}
