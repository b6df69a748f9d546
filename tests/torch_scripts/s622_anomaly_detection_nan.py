import torch
import warnings

x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
print(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled())
    y = x.sqrt().sum()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (x * 0 / 0).sum().backward()
    except RuntimeError as e:
        print("caught", "nan" in str(e).lower())
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
z = torch.tensor([1.0, 4.0], requires_grad=True)
with torch.autograd.set_detect_anomaly(True):
    z.sqrt().sum().backward()
print(z.grad)
