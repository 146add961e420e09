extern "C" __global__
void k26_kernel(int n, float* in1, int s2, float* out3) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = -(v3);
    float v5 = (v4 + 0.0f);
    bool v7 = (v3 < n);
    if (v7) {
        out3[v3] = v5;
    }
}
