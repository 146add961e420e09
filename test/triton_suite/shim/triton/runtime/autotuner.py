"""triton.autotune / triton.heuristics stand-ins: Triton's decorators in
effect, without timing: autotune launches the first config left after
pruning (each config is a kernel mytritonc compiles); heuristics computes
its values from the arguments."""


class Config:

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def all_kwargs(self):
        out = dict(self.kwargs)
        for k in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        return out

    def __str__(self):
        return ", ".join("%s: %s" % kv for kv in self.all_kwargs().items())


def _names(fn):
    while not hasattr(fn, "arg_names"):
        fn = fn.fn
    return fn.arg_names


class Autotuner:

    def __init__(self, fn, configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
                 pre_hook=None, post_hook=None, do_bench=None, **kw):
        self.fn = fn
        self.configs = configs or [Config({})]
        self.key = key
        self.prune_configs_by = prune_configs_by or {}
        self.pre_hook = pre_hook
        self.post_hook = post_hook
        self.arg_names = _names(fn)
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.src = getattr(fn, "src", None)
        self.best_config = None

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def run(self, *args, grid, **kwargs):
        configs = list(self.configs)
        named = dict(zip(self.arg_names, args))
        named.update(kwargs)
        prune = self.prune_configs_by.get("early_config_prune")
        if prune:
            configs = prune(configs, named, **kwargs) or configs
        cfg = configs[0]
        self.best_config = cfg
        full = dict(kwargs)
        full.update(cfg.all_kwargs())
        if cfg.pre_hook:
            cfg.pre_hook(dict(named, **cfg.all_kwargs()))
        return self.fn.run(*args, grid=grid, **full)

    def warmup(self, *args, grid, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):

    def decorator(fn):
        return Autotuner(fn, configs, key, prune_configs_by, reset_to_zero, restore_value, pre_hook, post_hook)

    return decorator


class Heuristics:

    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.values = values
        self.arg_names = arg_names
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.src = getattr(fn, "src", None)

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def run(self, *args, grid, **kwargs):
        named = dict(zip(self.arg_names, args))
        named.update(kwargs)
        for v, heur in self.values.items():
            kwargs[v] = heur(named)
            named[v] = kwargs[v]
        return self.fn.run(*args, grid=grid, **kwargs)

    def warmup(self, *args, grid, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)


def heuristics(values):

    def decorator(fn):
        return Heuristics(fn, _names(fn), values)

    return decorator
