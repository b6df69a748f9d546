# a NaN appearing in backward: plain backward gives nan grads; detect_anomaly names the op
import warnings
import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = x.sqrt() * 0
y.sum().backward()
print(x.grad)
x.grad = None
z = torch.where(x > 0, x.log(), torch.zeros(2))
z.sum().backward()
print(x.grad)
print(torch.is_anomaly_enabled())
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        print(torch.is_anomaly_enabled())
        w = torch.tensor([-1.0], requires_grad=True)
        try:
            w.sqrt().sum().backward()
            print("no error", w.grad)
        except RuntimeError as e:
            print("RuntimeError", str(e)[:40])
print(torch.is_anomaly_enabled())
