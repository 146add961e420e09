extern "C" __global__
void k54_kernel(int n, float* in1, float* in2, float* in3, int s4, int s5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = ((3) < (v3) ? (3) : (v3));
    int v5 = (v4 * -4);
    float v6 = (v5 + 0.0f);
    bool v8 = (v3 < n);
    if (v8) {
        out6[v3] = v6;
    }
}
