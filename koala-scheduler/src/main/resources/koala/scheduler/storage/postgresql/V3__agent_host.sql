-- where each agent runs: a scheduler that took over the lead on another host starts its own agents
ALTER TABLE agents ADD COLUMN host TEXT;
