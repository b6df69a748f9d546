# Turning lists of tensors into a tensor: losses collected per step, accuracy per batch, the
# 1-element-tensor case torch.tensor accepts, and the error for bigger tensors
import torch

losses = [torch.tensor(0.5), torch.tensor(0.25), torch.tensor(0.125)]
print(torch.tensor(losses), torch.stack(losses).mean(), torch.tensor([l.item() for l in losses]).sum())
accs = [torch.tensor([0.9]), torch.tensor([0.8])]
print(torch.tensor(accs), torch.tensor(accs).shape, torch.cat(accs), torch.stack(accs).shape)
mixed = [1.0, torch.tensor([2.0]), torch.tensor(3.0)]
print(torch.tensor(mixed), torch.tensor([[torch.tensor(1), 2], [3, torch.tensor([4])]]))
print(torch.tensor([torch.tensor(1, dtype=torch.int32), torch.tensor(2, dtype=torch.int32)]).dtype)
try:
    torch.tensor([torch.ones(2), torch.ones(2)])
except ValueError as e:
    print("ValueError", e)
try:
    torch.tensor([torch.ones(0)])
except ValueError as e:
    print("ValueError", e)
print(torch.as_tensor([torch.tensor(1.5), 2.5]), torch.Tensor([torch.tensor(2.0)]))
