class TritonError(Exception):
    pass


class CompilationError(TritonError):
    """A kernel mytritonc rejected (see MytritoncRejection)."""


class CompileTimeAssertionFailure(CompilationError):
    pass


class UnsupportedLanguageConstruct(CompilationError):
    pass
