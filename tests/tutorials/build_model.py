"""After PyTorch's "Build the Neural Network" tutorial."""
import torch
from torch import nn

torch.manual_seed(0)  # (not in the tutorial: the test's runs repeat)

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() \
    else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)
X = torch.rand(1, 28, 28, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")

input_image = torch.rand(3, 28, 28)
print(input_image.size())
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=28 * 28, out_features=20)
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
seq_modules = nn.Sequential(
    flatten,
    layer1,
    nn.ReLU(),
    nn.Linear(20, 10)
)
input_image = torch.rand(3, 28, 28)
logits = seq_modules(input_image)
softmax = nn.Softmax(dim=1)
pred_probab = softmax(logits)
print(f"Model structure: {model}\n\n")
sizes = []
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
    sizes.append((name, list(param.size())))

RESULT = {"device": device, "sizes": sizes, "flat": list(flat_image.size()),
          "hidden": list(hidden1.size()), "relu_nonneg": bool((hidden1 >= 0).all()),
          "probs_sum": pred_probab.sum(dim=1).tolist(), "y_pred_in_range":
          0 <= int(y_pred) < 10, "n_params": sum(p.numel() for p in model.parameters()),
          "repr_has_linear": "Linear(in_features=784, out_features=512, bias=True)" in str(model)}
