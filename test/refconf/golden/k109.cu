extern "C" __global__
void k109_kernel(int n, float* in1, float f2, int s3, float* in4, float* out5) {
    int v0 = blockIdx.x;
    bool v1 = (v0 < 5);
    int v2 = (v1 ? 1 : 0);
    float v3 = (v2 + 0.0f);
    out5[v0] = v3;
}
