extern "C" __global__
void k44_kernel(int n, float* in1, float* in2, float* in3, int trips4, float* in5, float* out6) {
    __shared__ float reduce_smem_8[16];

    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = -(v3);
    bool v6 = (v3 < n);
    float v7 = (v6 ? in1[v3] : -1.0f);
    reduce_smem_8[threadIdx.x] = v7;
    __syncthreads();
    for (int stride_8 = 8; stride_8 > 0; stride_8 >>= 1) {
        if (threadIdx.x < stride_8) {
            reduce_smem_8[threadIdx.x] = fmaxf(reduce_smem_8[threadIdx.x], reduce_smem_8[threadIdx.x + stride_8]);
        }
        __syncthreads();
    }
    float v8 = reduce_smem_8[0];
    float v9 = 0.0f;
    float v14 = v9;
    for (int v10 = 0; v10 < trips4; v10 += 1) {
        float v12 = -(v8);
        float v13 = (v14 + v12);
        v14 = v13;
    }
    float v15 = expf(v8);
    out6[v0] = v15;
}
