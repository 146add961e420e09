/* Status strings and the thread-local last error.
 *
 * The last error is a fixed buffer per thread (C11 _Thread_local): no
 * allocation, no global constructor, nothing to free. */
#include "mytriton/runtime.h"

#include <stdarg.h>
#include <stdio.h>

#define LAST_ERROR_SIZE 1024 /* 1023 bytes of message and the terminator */
#define STATUS_TEXT_SIZE 256

static _Thread_local char last_error[LAST_ERROR_SIZE];

/* The names of cudaError_t's codes (CUDA 13's driver_types.h), for the
 * codes a CUDA launcher returns; sorted by code. */
static const struct {
    int code;
    const char *name;
} cuda_codes[] = {
    {1, "cudaErrorInvalidValue"},
    {2, "cudaErrorMemoryAllocation"},
    {3, "cudaErrorInitializationError"},
    {4, "cudaErrorCudartUnloading"},
    {5, "cudaErrorProfilerDisabled"},
    {6, "cudaErrorProfilerNotInitialized"},
    {7, "cudaErrorProfilerAlreadyStarted"},
    {8, "cudaErrorProfilerAlreadyStopped"},
    {9, "cudaErrorInvalidConfiguration"},
    {12, "cudaErrorInvalidPitchValue"},
    {13, "cudaErrorInvalidSymbol"},
    {16, "cudaErrorInvalidHostPointer"},
    {17, "cudaErrorInvalidDevicePointer"},
    {18, "cudaErrorInvalidTexture"},
    {19, "cudaErrorInvalidTextureBinding"},
    {20, "cudaErrorInvalidChannelDescriptor"},
    {21, "cudaErrorInvalidMemcpyDirection"},
    {22, "cudaErrorAddressOfConstant"},
    {23, "cudaErrorTextureFetchFailed"},
    {24, "cudaErrorTextureNotBound"},
    {25, "cudaErrorSynchronizationError"},
    {26, "cudaErrorInvalidFilterSetting"},
    {27, "cudaErrorInvalidNormSetting"},
    {28, "cudaErrorMixedDeviceExecution"},
    {31, "cudaErrorNotYetImplemented"},
    {32, "cudaErrorMemoryValueTooLarge"},
    {34, "cudaErrorStubLibrary"},
    {35, "cudaErrorInsufficientDriver"},
    {36, "cudaErrorCallRequiresNewerDriver"},
    {37, "cudaErrorInvalidSurface"},
    {43, "cudaErrorDuplicateVariableName"},
    {44, "cudaErrorDuplicateTextureName"},
    {45, "cudaErrorDuplicateSurfaceName"},
    {46, "cudaErrorDevicesUnavailable"},
    {49, "cudaErrorIncompatibleDriverContext"},
    {52, "cudaErrorMissingConfiguration"},
    {53, "cudaErrorPriorLaunchFailure"},
    {65, "cudaErrorLaunchMaxDepthExceeded"},
    {66, "cudaErrorLaunchFileScopedTex"},
    {67, "cudaErrorLaunchFileScopedSurf"},
    {68, "cudaErrorSyncDepthExceeded"},
    {69, "cudaErrorLaunchPendingCountExceeded"},
    {98, "cudaErrorInvalidDeviceFunction"},
    {100, "cudaErrorNoDevice"},
    {101, "cudaErrorInvalidDevice"},
    {102, "cudaErrorDeviceNotLicensed"},
    {103, "cudaErrorSoftwareValidityNotEstablished"},
    {127, "cudaErrorStartupFailure"},
    {200, "cudaErrorInvalidKernelImage"},
    {201, "cudaErrorDeviceUninitialized"},
    {205, "cudaErrorMapBufferObjectFailed"},
    {206, "cudaErrorUnmapBufferObjectFailed"},
    {207, "cudaErrorArrayIsMapped"},
    {208, "cudaErrorAlreadyMapped"},
    {209, "cudaErrorNoKernelImageForDevice"},
    {210, "cudaErrorAlreadyAcquired"},
    {211, "cudaErrorNotMapped"},
    {212, "cudaErrorNotMappedAsArray"},
    {213, "cudaErrorNotMappedAsPointer"},
    {214, "cudaErrorECCUncorrectable"},
    {215, "cudaErrorUnsupportedLimit"},
    {216, "cudaErrorDeviceAlreadyInUse"},
    {217, "cudaErrorPeerAccessUnsupported"},
    {218, "cudaErrorInvalidPtx"},
    {219, "cudaErrorInvalidGraphicsContext"},
    {220, "cudaErrorNvlinkUncorrectable"},
    {221, "cudaErrorJitCompilerNotFound"},
    {222, "cudaErrorUnsupportedPtxVersion"},
    {223, "cudaErrorJitCompilationDisabled"},
    {224, "cudaErrorUnsupportedExecAffinity"},
    {225, "cudaErrorUnsupportedDevSideSync"},
    {226, "cudaErrorContained"},
    {300, "cudaErrorInvalidSource"},
    {301, "cudaErrorFileNotFound"},
    {302, "cudaErrorSharedObjectSymbolNotFound"},
    {303, "cudaErrorSharedObjectInitFailed"},
    {304, "cudaErrorOperatingSystem"},
    {400, "cudaErrorInvalidResourceHandle"},
    {401, "cudaErrorIllegalState"},
    {402, "cudaErrorLossyQuery"},
    {500, "cudaErrorSymbolNotFound"},
    {600, "cudaErrorNotReady"},
    {700, "cudaErrorIllegalAddress"},
    {701, "cudaErrorLaunchOutOfResources"},
    {702, "cudaErrorLaunchTimeout"},
    {703, "cudaErrorLaunchIncompatibleTexturing"},
    {704, "cudaErrorPeerAccessAlreadyEnabled"},
    {705, "cudaErrorPeerAccessNotEnabled"},
    {708, "cudaErrorSetOnActiveProcess"},
    {709, "cudaErrorContextIsDestroyed"},
    {710, "cudaErrorAssert"},
    {711, "cudaErrorTooManyPeers"},
    {712, "cudaErrorHostMemoryAlreadyRegistered"},
    {713, "cudaErrorHostMemoryNotRegistered"},
    {714, "cudaErrorHardwareStackError"},
    {715, "cudaErrorIllegalInstruction"},
    {716, "cudaErrorMisalignedAddress"},
    {717, "cudaErrorInvalidAddressSpace"},
    {718, "cudaErrorInvalidPc"},
    {719, "cudaErrorLaunchFailure"},
    {720, "cudaErrorCooperativeLaunchTooLarge"},
    {721, "cudaErrorTensorMemoryLeak"},
    {800, "cudaErrorNotPermitted"},
    {801, "cudaErrorNotSupported"},
    {802, "cudaErrorSystemNotReady"},
    {803, "cudaErrorSystemDriverMismatch"},
    {804, "cudaErrorCompatNotSupportedOnDevice"},
    {805, "cudaErrorMpsConnectionFailed"},
    {806, "cudaErrorMpsRpcFailure"},
    {807, "cudaErrorMpsServerNotReady"},
    {808, "cudaErrorMpsMaxClientsReached"},
    {809, "cudaErrorMpsMaxConnectionsReached"},
    {810, "cudaErrorMpsClientTerminated"},
    {811, "cudaErrorCdpNotSupported"},
    {812, "cudaErrorCdpVersionMismatch"},
    {900, "cudaErrorStreamCaptureUnsupported"},
    {901, "cudaErrorStreamCaptureInvalidated"},
    {902, "cudaErrorStreamCaptureMerge"},
    {903, "cudaErrorStreamCaptureUnmatched"},
    {904, "cudaErrorStreamCaptureUnjoined"},
    {905, "cudaErrorStreamCaptureIsolation"},
    {906, "cudaErrorStreamCaptureImplicit"},
    {907, "cudaErrorCapturedEvent"},
    {908, "cudaErrorStreamCaptureWrongThread"},
    {909, "cudaErrorTimeout"},
    {910, "cudaErrorGraphExecUpdateFailure"},
    {911, "cudaErrorExternalDevice"},
    {912, "cudaErrorInvalidClusterSize"},
    {913, "cudaErrorFunctionNotLoaded"},
    {914, "cudaErrorInvalidResourceType"},
    {915, "cudaErrorInvalidResourceConfiguration"},
    {999, "cudaErrorUnknown"},
};

/* The text a CUDA launcher gave for its last error on this thread. */
static _Thread_local int status_text_code;
static _Thread_local char status_text[STATUS_TEXT_SIZE];

/* What is missing when CUDA returns these codes (a machine without an
 * NVIDIA driver, with the toolkit's stub driver, or without a GPU). */
static const struct {
    int code;
    const char *missing;
} cuda_missing[] = {
    {34, "no NVIDIA driver was found (the CUDA driver library is the toolkit's stub)"},
    {35, "no NVIDIA driver was found, or it is older than this program's CUDA runtime"},
    {100, "no NVIDIA GPU was found"},
};

static _Thread_local char cuda_text_buf[STATUS_TEXT_SIZE];

const char *mytriton_cuda_error_text(int code, const char *cuda_text) {
    if (cuda_text == NULL) cuda_text = mytriton_status_string(code);
    if (cuda_text == cuda_text_buf) return cuda_text; /* (already this text) */
    for (size_t i = 0; i < sizeof cuda_missing / sizeof cuda_missing[0]; i++)
        if (cuda_missing[i].code == code) {
            snprintf(cuda_text_buf, sizeof cuda_text_buf, "%s (CUDA: %s)", cuda_missing[i].missing,
                     cuda_text);
            return cuda_text_buf;
        }
    return cuda_text;
}

void mytriton_set_status_text(int status, const char *text) {
    status_text_code = status;
    if (text == NULL || status == 0) {
        status_text[0] = '\0';
        return;
    }
    snprintf(status_text, sizeof status_text, "%s", mytriton_cuda_error_text(status, text));
}

const char *mytriton_status_string(int status) {
    switch (status) {
    case MYTRITON_SUCCESS: return "success";
    case MYTRITON_INVALID_VALUE: return "invalid value";
    case MYTRITON_OUT_OF_MEMORY: return "out of memory";
    case MYTRITON_NO_DEVICE: return "no device";
    case MYTRITON_NOT_FOUND: return "not found";
    case MYTRITON_LAUNCH_FAILED: return "launch failed";
    default: break;
    }
    if (status == status_text_code && status_text[0] != '\0') return status_text;
    size_t lo = 0, hi = sizeof cuda_codes / sizeof cuda_codes[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cuda_codes[mid].code == status) return cuda_codes[mid].name;
        if (cuda_codes[mid].code < status) lo = mid + 1;
        else hi = mid;
    }
    return "unknown status";
}

const char *mytriton_last_error(void) { return last_error; }

void mytriton_set_last_error(const char *fmt, ...) {
    va_list ap;
    if (fmt == NULL) {
        last_error[0] = '\0';
        return;
    }
    va_start(ap, fmt);
    if (vsnprintf(last_error, sizeof last_error, fmt, ap) < 0) last_error[0] = '\0';
    va_end(ap);
}

void mytriton_clear_last_error(void) { last_error[0] = '\0'; }
