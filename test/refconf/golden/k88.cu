extern "C" __global__
void k88_kernel(int n, float* in1, float* in2, float* in3, int s4, int s5, float* out6) {
    int v0 = (s4 + s5);
    int v1 = (v0 + 8);
    int v2 = (6 - v1);
    int v3 = (8 + v2);
    float v4 = (v3 + 0.0f);
    int v5 = blockIdx.x;
    out6[v5] = v4;
}
