# torch.signal.windows: the SciPy-style window family (symmetric and periodic)
import torch

W = torch.signal.windows
torch.set_printoptions(precision=5)
for name in ["bartlett", "blackman", "cosine", "hamming", "hann", "nuttall"]:
    fn = getattr(W, name)
    print(name, fn(7))
    print(name, "periodic", fn(6, sym=False))
print("gaussian", W.gaussian(7, std=1.5))
print("gaussian periodic", W.gaussian(6, std=2.0, sym=False))
print("exponential", W.exponential(7, tau=2.0))
print("exponential centred", W.exponential(6, center=1.0, sym=False))
print("kaiser", W.kaiser(7, beta=5.0))
print("kaiser periodic", W.kaiser(6, beta=8.0, sym=False))
print("general_cosine", W.general_cosine(5, a=[0.46, 0.23, 0.31]))
print("general_hamming", W.general_hamming(5, alpha=0.6))
for M in (0, 1, 2):
    print(M, W.hann(M), W.kaiser(M), W.bartlett(M), W.gaussian(M))
w = W.hann(8, dtype=torch.float32)
print(w.dtype, w.shape, w.requires_grad)
for bad in [lambda: W.hann(-1), lambda: W.hann(4, dtype=torch.int64),
            lambda: W.gaussian(4, std=0.0), lambda: W.exponential(4, tau=-1.0),
            lambda: W.exponential(4, center=1.0), lambda: W.kaiser(4, beta=-1.0),
            lambda: W.general_cosine(4, a=[])]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# a windowed signal's spectrum
x = torch.sin(torch.arange(16) * 0.7)
spec = torch.fft.rfft(x * W.hann(16, sym=False))
print(spec.abs().round(decimals=4))
