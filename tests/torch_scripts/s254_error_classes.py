import torch


def run(batch):
    try:
        if batch > 64:
            raise torch.OutOfMemoryError("pretend: batch too big")
        return torch.ones(batch, 2).sum()
    except torch.OutOfMemoryError as e:
        print("OOM caught:", e)
        return run(batch // 2)


print(run(256))
print(issubclass(torch.OutOfMemoryError, RuntimeError), torch.OutOfMemoryError)
print(torch.cuda.OutOfMemoryError is torch.OutOfMemoryError)
print(issubclass(torch.AcceleratorError, RuntimeError))
print(torch.has_lapack, torch.has_spectral)
try:
    raise torch.cuda.OutOfMemoryError("x")
except RuntimeError as e:
    print(type(e).__name__)
