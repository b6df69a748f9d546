# Less common elementwise ops: frexp, ldexp, copysign, nextafter, heaviside, float_power, hypot, logaddexp2, xlogy
import torch

x = torch.tensor([8.0, 0.3, -5.0, 0.0])
m, e = torch.frexp(x)
print(m, e, torch.ldexp(m, e))
print(torch.copysign(torch.tensor([1.0, 2.0]), torch.tensor([-0.0, 3.0])), torch.signbit(torch.tensor([-0.0, 0.0, -1.0])))
print(torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1, torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)))
print(torch.float_power(torch.tensor([2, 3]), 2), torch.float_power(torch.tensor([4.0]), -0.5).dtype)
print(torch.hypot(torch.tensor([3.0]), torch.tensor([4.0])), torch.logaddexp2(torch.tensor([1.0]), torch.tensor([1.0])))
print(torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])), torch.special.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 1.0])))
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")]), nan=0.0, posinf=9.0))
print(torch.isclose(torch.tensor([1.0, float("nan")]), torch.tensor([1.0 + 1e-9, float("nan")]), equal_nan=True))
print(torch.lerp(torch.tensor([0.0, 10.0]), torch.tensor([10.0, 20.0]), torch.tensor([0.25, 0.5])))
print(torch.addcmul(torch.ones(2), torch.tensor([2.0, 3.0]), torch.tensor([4.0, 5.0]), value=0.5), torch.addcdiv(torch.ones(2), torch.tensor([2.0, 3.0]), torch.tensor([4.0, 5.0]), value=2))
print(torch.sinc(torch.tensor([0.0, 0.5, 1.0])), torch.logit(torch.tensor([0.0, 0.25, 1.0]), eps=1e-6))
a = torch.tensor([0.5, 2.0], requires_grad=True)
(torch.hypot(a, torch.tensor([1.0, 1.0])).sum() + torch.xlogy(a, a).sum() + torch.copysign(a, torch.tensor([-1.0, 1.0])).sum()).backward()
print(a.grad)
