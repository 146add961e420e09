extern "C" __global__
void k135_kernel(int n, float* in1, float f2, float* in3, float* out4) {
    int v0 = blockIdx.x;
    int v1 = (v0 * v0);
    int v2 = ((v1) > (v0) ? (v1) : (v0));
    float v3 = (v2 + 0.0f);
    out4[v0] = v3;
}
