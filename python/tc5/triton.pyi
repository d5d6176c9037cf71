from typing import Any, Sequence

def compile(fn: Any, *args: Any, num_warps: int = 4, num_stages: int = 2, **constexprs: Any) -> tuple[str, int]: ...
def run(
    fn: Any, grid: int | Sequence[int], *args: Any, num_warps: int = 4, num_stages: int = 2, check: str = "default",
    threads: int | None = None, **constexprs: Any,
) -> list[dict[str, Any]]: ...
