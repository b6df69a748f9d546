# detect_anomaly reports the op whose backward produced NaN
import warnings
import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        y = x.sqrt() * 0
        try:
            y.sum().backward()
            print("no error", x.grad)
        except RuntimeError as e:
            print("RuntimeError", "returned nan values" in str(e), "SqrtBackward0" in str(e) or "MulBackward0" in str(e))
print(torch.is_anomaly_enabled())
x.grad = None
(x.sqrt() * 0).sum().backward()
print(x.grad)
