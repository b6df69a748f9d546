# DQN update step (PyTorch RL tutorial): policy/target nets, gather, max(1)[0], smooth_l1_loss
import copy
from collections import namedtuple, deque
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

Transition = namedtuple('Transition', ('state', 'action', 'next_state', 'reward'))


class ReplayMemory(object):
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super(DQN, self).__init__()
        self.layer1 = nn.Linear(n_observations, 32)
        self.layer2 = nn.Linear(32, 32)
        self.layer3 = nn.Linear(32, n_actions)

    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)


policy_net = DQN(4, 2)
with torch.no_grad():
    for i, p in enumerate(policy_net.parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.77 + i).view_as(p))
target_net = DQN(4, 2)
target_net.load_state_dict(policy_net.state_dict())
optimizer = optim.AdamW(policy_net.parameters(), lr=1e-3, amsgrad=True)
memory = ReplayMemory(100)
for t in range(12):
    s = torch.tensor([[t * 0.1, -t * 0.05, 0.3, 1.0]])
    ns = None if t % 5 == 4 else s + 0.1
    memory.push(s, torch.tensor([[t % 2]]), ns, torch.tensor([1.0]))
print(len(memory), memory.memory[0].action)

BATCH_SIZE, GAMMA, TAU = 8, 0.99, 0.005
for step in range(4):
    transitions = list(memory.memory)[step:step + BATCH_SIZE]
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(tuple(map(lambda s: s is not None, batch.next_state)), dtype=torch.bool)
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1)[0]
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    target_net_state_dict = target_net.state_dict()
    policy_net_state_dict = policy_net.state_dict()
    for key in policy_net_state_dict:
        target_net_state_dict[key] = policy_net_state_dict[key] * TAU + target_net_state_dict[key] * (1 - TAU)
    target_net.load_state_dict(target_net_state_dict)
    print(f"step {step} loss {loss.item():.6f} mask {non_final_mask.sum().item()}")
print(F.smooth_l1_loss(torch.tensor([0.5, 2.0]), torch.zeros(2), beta=0.5).item())
with torch.no_grad():
    print(policy_net(state_batch).max(1).indices.tolist(), policy_net(state_batch[:1]).argmax().view(1, 1))
hard = copy.deepcopy(policy_net)
print(all(torch.equal(a, b) for a, b in zip(hard.parameters(), policy_net.parameters())))
