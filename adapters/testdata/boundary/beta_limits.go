package boundary

const betaLimit = 3
