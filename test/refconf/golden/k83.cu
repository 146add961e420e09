extern "C" __global__
void k83_kernel(int n, float* in1, float* in2, float f3, float* out4) {
    int v0 = blockIdx.x;
    int v1 = -(v0);
    float v2 = (v1 + 0.0f);
    out4[v0] = v2;
}
