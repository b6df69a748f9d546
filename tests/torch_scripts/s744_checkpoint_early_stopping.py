# Training with early stopping and checkpoint dicts saved to a temporary directory
import os
import tempfile
import torch
import torch.nn as nn

x = torch.linspace(-2, 2, 50).unsqueeze(1)
y = torch.tanh(2 * x) + 0.05 * torch.cos(9 * x)
x_val = torch.linspace(-1.9, 1.9, 13).unsqueeze(1)
y_val = torch.tanh(2 * x_val)
model = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 2.1 + i).view_as(p))
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.5)
loss_fn = nn.MSELoss()


class EarlyStopping:
    def __init__(self, patience=5, min_delta=1e-4):
        self.patience, self.min_delta = patience, min_delta
        self.counter, self.best_loss, self.early_stop = 0, float("inf"), False

    def __call__(self, val_loss):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.counter = 0
            return True
        self.counter += 1
        if self.counter >= self.patience:
            self.early_stop = True
        return False


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "best.pt")
    stopper = EarlyStopping(patience=8)
    for epoch in range(200):
        model.train()
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        scheduler.step()
        model.eval()
        with torch.no_grad():
            val_loss = loss_fn(model(x_val), y_val).item()
        if stopper(val_loss):
            torch.save({"epoch": epoch, "model_state_dict": model.state_dict(),
                        "optimizer_state_dict": optimizer.state_dict(),
                        "scheduler": scheduler.state_dict(), "val_loss": val_loss}, path)
        if stopper.early_stop:
            print(f"Early stopping at epoch {epoch}")
            break
    print(f"best val {stopper.best_loss:.6f} lr now {scheduler.get_last_lr()[0]:.5f}")
    checkpoint = torch.load(path, weights_only=True)
    print(sorted(checkpoint.keys()), checkpoint["epoch"])
    fresh = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
    missing = fresh.load_state_dict(checkpoint["model_state_dict"])
    print(missing)
    opt2 = torch.optim.Adam(fresh.parameters(), lr=0.05)
    opt2.load_state_dict(checkpoint["optimizer_state_dict"])
    print(opt2.state_dict()["param_groups"][0]["lr"], len(opt2.state_dict()["state"]))
    fresh.eval()
    with torch.no_grad():
        print(round(loss_fn(fresh(x_val), y_val).item(), 6) == round(checkpoint["val_loss"], 6))
    torch.save(model, os.path.join(tmp, "whole.pt"))
    print(sorted(os.listdir(tmp)))
