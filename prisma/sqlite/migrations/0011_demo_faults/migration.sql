-- CreateTable
CREATE TABLE "DemoFault" (
    "tenant" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "armedBy" TEXT NOT NULL,
    "armedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
