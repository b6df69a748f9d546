"""A small MLP learns the two-moons data set with Adam (micrograd's moons demo, on tapegrad).

Written as PyTorch code: swapping the three imports below for `import torch`,
`import torch.nn as nn` and `import torch.nn.functional as F` trains the same model in
PyTorch (tests/test_training_examples.py runs both when PyTorch is installed).
"""
import sys
import time

import numpy as np

import tapegrad as torch
import tapegrad.nn as nn
import tapegrad.nn.functional as F


def make_moons(n, noise, rng):
    """Two interleaved half circles (scikit-learn's make_moons), labels 0 and 1."""
    t = rng.uniform(0.0, np.pi, n)
    upper = rng.uniform(size=n) < 0.5
    x = np.where(upper, np.cos(t), 1.0 - np.cos(t))
    y = np.where(upper, np.sin(t), 0.5 - np.sin(t))
    points = np.stack([x, y], axis=1) + rng.normal(0.0, noise, (n, 2))
    return points, (~upper).astype(np.int64)


rng = np.random.default_rng(0)
points, labels = make_moons(400, 0.1, rng)
X = torch.tensor(points)  # float64, (400, 2)
y = torch.tensor(labels)  # int64 class indices

torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(2, 16), nn.Tanh(),
    nn.Linear(16, 16), nn.Tanh(),
    nn.Linear(16, 2),
).double()
optimizer = torch.optim.Adam(model.parameters(), lr=0.03)

start = time.perf_counter()
for step in range(301):
    optimizer.zero_grad()
    logits = model(X)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    if step % 50 == 0:
        accuracy = (logits.argmax(dim=1) == y).double().mean().item()
        print(f"step {step:3d}  loss {loss.item():.4f}  accuracy {accuracy:.1%}")
elapsed = time.perf_counter() - start

with torch.no_grad():
    accuracy = (model(X).argmax(dim=1) == y).double().mean().item()
print(f"final accuracy {accuracy:.1%} on {len(labels)} points "
      f"({elapsed:.2f} s for 301 Adam steps)")
if accuracy <= 0.95:
    sys.exit("the MLP did not learn the moons (accuracy <= 95%)")
