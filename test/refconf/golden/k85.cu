extern "C" __global__
void k85_kernel(int n, float* in1, float* out2) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = -(v3);
    float v5 = (v4 + 0.0f);
    bool v7 = (v3 < n);
    if (v7) {
        out2[v3] = v5;
    }
}
