import torch
import torch.nn as nn

# each error's type, and whether its text holds the phrase PyTorch's documentation quotes
def show(label, f, phrase):
    try:
        f()
        print(label, "no error")
    except Exception as e:
        print(label, type(e).__name__, phrase in str(e))

show("matmul", lambda: torch.ones(2, 3) @ torch.ones(2, 3), "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)")
show("mm", lambda: torch.mm(torch.ones(2, 3), torch.ones(4, 5)), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)")
show("bmm", lambda: torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 4, 2)), "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].")
show("broadcast", lambda: torch.ones(3, 2) + torch.ones(4, 2), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0")
show("broadcast_mul", lambda: torch.ones(2, 3, 4) * torch.ones(3, 3), "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 2")
show("view", lambda: torch.arange(6).view(4, -1), "shape '[4, -1]' is invalid for input of size 6")
show("reshape", lambda: torch.arange(6).reshape(5), "shape '[5]' is invalid for input of size 6")
show("cat", lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)], dim=0), "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 2 for tensor number 1 in the list.")
show("stack", lambda: torch.stack([torch.ones(2), torch.ones(3)]), "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1")
show("index", lambda: torch.arange(3)[3], "index 3 is out of bounds for dimension 0 with size 3")
show("dim", lambda: torch.ones(2, 3).sum(2), "Dimension out of range (expected to be in range of [-2, 1], but got 2)")
show("linear", lambda: nn.Linear(4, 2)(torch.ones(3, 5)), "mat1 and mat2 shapes cannot be multiplied (3x5 and 4x2)")
def twice():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()
show("backward twice", twice, "Trying to backward through the graph a second time")
def leaf():
    w = torch.ones(2, requires_grad=True)
    w += 1
show("leaf in-place", leaf, "a leaf Variable that requires grad is being used in an in-place operation.")
def nonscalar():
    x = torch.ones(2, requires_grad=True)
    (x * 2).backward()
show("non-scalar", nonscalar, "grad can be implicitly created only for scalar outputs")
show("no grad", lambda: torch.ones(2).sum().backward(), "element 0 of tensors does not require grad and does not have a grad_fn")
show("int grad", lambda: torch.ones(2, dtype=torch.long).requires_grad_(), "only Tensors of floating point dtype can require gradients")
show("int grad attr", lambda: setattr(torch.ones(2, dtype=torch.long), "requires_grad", True), "only Tensors of floating point and complex dtype can require gradients")
show("item", lambda: torch.ones(3).item(), "a Tensor with 3 elements cannot be converted to Scalar")
show("bool", lambda: bool(torch.ones(3)), "Boolean value of Tensor with more than one value is ambiguous")
show("numpy", lambda: torch.ones(2, requires_grad=True).numpy(), "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
show("expand", lambda: torch.ones(3, 2).expand(4, 3), "The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 1.  Target sizes: [4, 3].  Tensor sizes: [3, 2]")
show("squeeze dim", lambda: torch.ones(2, 3).squeeze(4), "Dimension out of range (expected to be in range of [-2, 1], but got 4)")
show("permute", lambda: torch.ones(2, 3).permute(0, 0), "permute(): duplicate dims are not allowed")
show("grad unused", lambda: torch.autograd.grad((torch.ones(1, requires_grad=True) * 2).sum(), torch.ones(1, requires_grad=True)), "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.")
def modified():
    a = torch.ones(3, requires_grad=True)
    b = a.exp()
    b.add_(1)
    b.sum().backward()
show("modified", modified, "one of the variables needed for gradient computation has been modified by an inplace operation: [torch.DoubleTensor [3]], which is output 0 of ExpBackward0, is at version 1; expected version 0 instead.")
show("cross_entropy", lambda: nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0, 5])), "Target 5 is out of bounds.")
show("embedding", lambda: nn.Embedding(4, 2)(torch.tensor([4])), "index out of range in self")
show("mse warn shape", lambda: nn.functional.l1_loss(torch.ones(2, 3), torch.ones(3, 2)), "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1")
show("conv", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)), "expected input[1, 2, 5, 5] to have 3 channels, but got 2 channels instead")
show("ones neg", lambda: torch.ones(-1), "Trying to create tensor with negative dimension -1: [-1]")
show("gather", lambda: torch.gather(torch.ones(2, 2), 1, torch.tensor([[2]])), "index 2 is out of bounds for dimension 1 with size 2")
