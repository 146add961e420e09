extern "C" __global__
void full_literal_kernel(float* out) {
    float v0 = 2;
    float v1 = 0.5f;
    float v2 = (v0 * v1);
    int v3 = 3;
    float v4 = (v2 + v3);
    int v5 = threadIdx.x;
    out[v5] = v4;
}
