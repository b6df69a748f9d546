"""After PyTorch's "Optimizing Model Parameters" and "Save and Load the Model" tutorials:
the train and test loops over DataLoaders, then saving and loading the weights.  The
FashionMNIST download is replaced by a seeded, FashionMNIST-shaped TensorDataset."""
import os
import tempfile

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)  # (not in the tutorial: the test's runs repeat)

rng = np.random.default_rng(1)
proj = rng.standard_normal((784, 10)).astype(np.float32)
images = rng.random((640, 1, 28, 28), dtype=np.float32)
labels = (images.reshape(640, -1) @ proj).argmax(1)
training_data = TensorDataset(torch.from_numpy(images[:512]), torch.from_numpy(labels[:512]))
test_data = TensorDataset(torch.from_numpy(images[512:]), torch.from_numpy(labels[512:]))
train_dataloader = DataLoader(training_data, batch_size=64)
test_dataloader = DataLoader(test_data, batch_size=64)


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


model = NeuralNetwork()
learning_rate = 1e-1
batch_size = 64
epochs = 2
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 4 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
    return test_loss, correct


first = test_loop(test_dataloader, model, loss_fn)
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    last = test_loop(test_dataloader, model, loss_fn)
print("Done!")

path = os.path.join(tempfile.mkdtemp(), "model_weights.pth")
torch.save(model.state_dict(), path)
model2 = NeuralNetwork()
model2.load_state_dict(torch.load(path, weights_only=True))
model2.eval()
again = test_loop(test_dataloader, model2, loss_fn)
RESULT = {"first": list(first), "last": list(last), "reloaded_equal": again == last,
          "keys": sorted(model2.state_dict())}
