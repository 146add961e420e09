from ..compiler.errors import TritonError


class InterpreterError(TritonError):
    pass


class OutOfResources(TritonError):
    pass


class PTXASError(TritonError):
    pass
